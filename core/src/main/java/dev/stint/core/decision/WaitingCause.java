package dev.stint.core.decision;

/**
 * One cause for which some of a job's pods cannot run, as a decision found it: what the reconciler announces, once
 * per distinct cause, in a Warning event and a log line.
 *
 * @param cause Kubernetes' word for it, without the kind: {@code Unschedulable}, {@code ImagePullBackOff}, ...
 * @param message the replicas and the pods' own words: {@code 3 of 8 Workers: ImagePullBackOff: Back-off pulling
 *     image "x"}; several replica types are separated by {@code "; "}
 */
public record WaitingCause(String cause, String message) { }
