package dev.stint.spi;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * The condition messages of a kind. The engine's default is {@link #standard}, the Kubeflow training operator's
 * PyTorchJob messages; a framework whose upstream uses other words implements {@link WithMessages}.
 */
public interface JobMessages {

  /** Message of {@code Running=True}. */
  String running();

  /** Message of {@code Succeeded=True}. */
  String succeeded();

  /** Message of {@code Failed=True} when {@code count} replicas of {@code type} failed for good. */
  String failed(String type, int count);

  /** Messages of the form {@code <Kind> <name> is running.}. */
  static JobMessages standard(String kind, String name) {
    return new JobMessages() {
      @Override public String running() { return kind + " " + name + " is running."; }

      @Override public String succeeded() { return kind + " " + name + " is successfully completed."; }

      @Override public String failed(String type, int count) {
        return kind + " " + name + " is failed because " + count + " " + type + " replica(s) failed.";
      }
    };
  }

  /**
   * Messages naming the job with its namespace, as the TFJob and MPIJob controllers word them:
   * {@code <Kind> <namespace>/<name> is running.}, {@code ... successfully completed.} and
   * {@code ... has failed because <count> <type> replica(s) failed.}.
   */
  static JobMessages namespaced(String kind, HasMetadata job) {
    String qualified = kind + " " + job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    return new JobMessages() {
      @Override public String running() { return qualified + " is running."; }

      @Override public String succeeded() { return qualified + " successfully completed."; }

      @Override public String failed(String type, int count) {
        return qualified + " has failed because " + count + " " + type + " replica(s) failed.";
      }
    };
  }

  /** These running and succeeded messages, with the failure message of {@code other}. */
  default JobMessages failingAs(JobMessages other) {
    JobMessages self = this;
    return new JobMessages() {
      @Override public String running() { return self.running(); }

      @Override public String succeeded() { return self.succeeded(); }

      @Override public String failed(String type, int count) { return other.failed(type, count); }
    };
  }
}
