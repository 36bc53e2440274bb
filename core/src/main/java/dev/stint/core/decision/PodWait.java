package dev.stint.core.decision;

import java.time.Instant;

/**
 * One pod of a job that exists and cannot run, as its status says.
 *
 * @param type the replica type ({@code Worker})
 * @param index the replica index
 * @param cause why, in Kubernetes' own word: {@code Unschedulable}, a container's waiting reason
 *     ({@code ImagePullBackOff}, {@code CreateContainerConfigError}, {@code CrashLoopBackOff}, ...), or
 *     {@code PodInitializing} / {@code ContainerCreating} for a start slower than {@link WaitingPods#SLOW_START}
 * @param words the scheduler's or the kubelet's message, empty when it gave none
 * @param waitingSince since when the pod has waited to start, for {@code podsWaitingTimeoutSeconds}; null when that
 *     limit does not apply (a crash loop, which {@code backoffLimit} counts)
 */
record PodWait(String type, int index, String cause, String words, Instant waitingSince) { }
