package dev.stint.spi;

import java.util.Locale;

/**
 * One replica of a job: its type ({@code Master}, {@code Worker}, ...) and index. Names follow the Kubeflow
 * convention {@code <job>-<type in lower case>-<index>}, for pods and their headless services alike.
 */
public record ReplicaId(String type, int index) {

  /** The replica type in lower case, as used in names and in the {@code replica-type} label. */
  public String typeLabel() {
    return type.toLowerCase(Locale.ROOT);
  }

  /** The pod (and service) name of this replica in a job. */
  public String podName(String jobName) {
    return (jobName + "-" + typeLabel() + "-" + index).replace('/', '-');
  }

  @Override
  public String toString() {
    return type + "-" + index;
  }
}
