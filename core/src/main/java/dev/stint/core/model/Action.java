package dev.stint.core.model;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.util.function.Supplier;

/** A change to the cluster that a decision asks the I/O layer to make. Names are in the job's namespace. */
public sealed interface Action {

  /**
   * Create a pod; an existing pod of the same name that the job owns means the action already happened. The pod is
   * built when it is sent ({@link #pod()}), so that a pass holds only the pods of the wave in flight, not all of a
   * large job's (a TFJob's {@code TF_CONFIG} lists every replica, so its pods grow with the job). With
   * {@code carriedByJob} the pod is sent as the template of a batch Job of its name
   * ({@link dev.stint.core.decision.CarrierJobs#carrying}), whose controller makes the pod.
   */
  record CreatePod(String name, Supplier<Pod> recipe, boolean carriedByJob) implements Action {
    public CreatePod(Pod pod) {
      this(pod.getMetadata().getName(), () -> pod, false);
    }

    public CreatePod(String name, Supplier<Pod> recipe) {
      this(name, recipe, false);
    }

    /** Builds the pod (again on every call: a pure function of the job). */
    public Pod pod() { return recipe.get(); }

    @Override public String toString() { return "CreatePod(" + name + ")"; }
  }

  /**
   * Delete a pod with its own termination grace period; with {@code resourceVersion} set, only if the pod is still
   * as observed (a pod that has changed since, for example ended, is left for the next pass to judge). With
   * {@code carrierJob} set the pod runs in that batch Job, which is deleted first (in the background, so that its
   * controller makes no new pod), then the pod, so that its containers get SIGTERM without waiting for the garbage
   * collector ({@link dev.stint.core.decision.CarrierJobs#withCarriers}).
   */
  record DeletePod(String name, String why, String resourceVersion, String carrierJob) implements Action {
    public DeletePod(String name, String why) {
      this(name, why, null, null);
    }

    public DeletePod(String name, String why, String resourceVersion) {
      this(name, why, resourceVersion, null);
    }
  }

  /** Create a headless service, built when it is sent, as {@link CreatePod}. */
  record CreateService(String name, Supplier<Service> recipe) implements Action {
    public CreateService(Service service) {
      this(service.getMetadata().getName(), () -> service);
    }

    public Service service() { return recipe.get(); }

    @Override public String toString() { return "CreateService(" + name + ")"; }
  }

  /** Delete a service. */
  record DeleteService(String name) implements Action { }

  /**
   * Create a supporting object such as an autoscaler ({@code replacing} null), or replace the observed one of that
   * resource version.
   */
  record ApplyResource(HasMetadata resource, String replacing) implements Action {
    @Override public String toString() {
      return "ApplyResource(" + resource.getKind() + "/" + resource.getMetadata().getName() + ")";
    }
  }

  /** Delete a supporting object. */
  record DeleteResource(HasMetadata resource) implements Action {
    @Override public String toString() {
      return "DeleteResource(" + resource.getKind() + "/" + resource.getMetadata().getName() + ")";
    }
  }

  /** Delete the job itself (its TTL after finishing has passed); the garbage collector removes its children. */
  record DeleteJob() implements Action { }
}
