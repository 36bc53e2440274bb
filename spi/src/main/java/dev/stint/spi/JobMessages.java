package dev.stint.spi;

/**
 * The condition messages of a kind. The defaults are the Kubeflow training operator's PyTorchJob messages; a
 * framework whose upstream uses other words overrides {@link TrainingFramework#messages}.
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
}
