package dev.stint.spi;

import java.util.List;
import java.util.Objects;

/**
 * A {@link TrainingFramework} whose description of its kind (name, custom resource class, replica types, defaults) is
 * given once, to the constructor, so that a framework class holds only what differs between kinds: who leads, how a
 * replica is wired, what success is. Extending it is optional; a framework may implement the interface directly.
 *
 * @param <J> the custom resource class of the kind
 */
public abstract class AbstractTrainingFramework<J extends TrainingJob<?>> implements TrainingFramework<J> {

  private final String name;
  private final Class<J> jobType;
  private final List<String> replicaTypes;
  private final FrameworkDefaults defaults;

  /**
   * The kind's description.
   *
   * @param name the framework's stable short name ({@link #name()})
   * @param jobType the custom resource class ({@link #jobType()})
   * @param replicaTypes the replica types in the order the engine evaluates and creates them
   * @param defaults the kind's default container, port and restart policy
   */
  protected AbstractTrainingFramework(String name, Class<J> jobType, List<String> replicaTypes,
      FrameworkDefaults defaults) {
    this.name = Objects.requireNonNull(name, "name");
    this.jobType = Objects.requireNonNull(jobType, "jobType");
    this.replicaTypes = List.copyOf(replicaTypes);
    this.defaults = Objects.requireNonNull(defaults, "defaults");
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Class<J> jobType() {
    return jobType;
  }

  @Override
  public final List<String> replicaTypes() {
    return replicaTypes;
  }

  @Override
  public final FrameworkDefaults defaults() {
    return defaults;
  }
}
