package dev.stint.core.decision;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;

/** A change to the cluster that a decision asks the I/O layer to make. Names are in the job's namespace. */
public sealed interface Action {

  /** Create a pod; an existing pod of the same name means the action already happened. */
  record CreatePod(Pod pod) implements Action {
    @Override public String toString() { return "CreatePod(" + pod.getMetadata().getName() + ")"; }
  }

  /** Delete a pod with its own termination grace period. */
  record DeletePod(String name, String why) implements Action { }

  /** Create a headless service. */
  record CreateService(Service service) implements Action {
    @Override public String toString() { return "CreateService(" + service.getMetadata().getName() + ")"; }
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
