package dev.stint.testkit;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The common part of a kind's fluent job fixture, in the style of Kueue's {@code MakePyTorchJob(...).Obj()}: a name,
 * a namespace ({@code default} unless set) and the replica specs in the order added. A kind's fixture extends it with
 * its replica types and fields and builds its job from {@link #metadata()} and {@link #replicaSpecs()}:
 * {@code TestJaxJobs.job("j").namespace("ns").workers(2).build()}.
 *
 * @param <J> the kind's custom resource class
 * @param <F> the fixture class itself, so that every setter returns it
 */
public abstract class JobFixture<J extends TrainingJob<?>, F extends JobFixture<J, F>> {

  private final String name;
  private String namespace = "default";
  private final Map<String, ReplicaSpec> replicas = new LinkedHashMap<>();

  /** A fixture for a job of this name. */
  protected JobFixture(String name) {
    this.name = name;
  }

  /** This fixture, typed as its own class. */
  protected abstract F self();

  /** The job, built anew on each call. */
  public abstract J build();

  /** The job's namespace. */
  public F namespace(String namespace) {
    this.namespace = namespace;
    return self();
  }

  /** Adds a replica type, or replaces one added before. */
  public F replicaType(String type, ReplicaSpec spec) {
    replicas.put(type, spec);
    return self();
  }

  /** Changes the pod template of a replica type added before. */
  public F template(String type, Consumer<PodSpecBuilder> change) {
    ReplicaFixtures.editTemplate(replicas.get(type), change);
    return self();
  }

  /** The job's name. */
  protected String name() {
    return name;
  }

  /** The replica spec of a type added before, to change in place; null if none was added. */
  protected ReplicaSpec replicaSpec(String type) {
    return replicas.get(type);
  }

  /** A copy of the replica specs in the order added, for the kind's spec. */
  protected Map<String, ReplicaSpec> replicaSpecs() {
    return new LinkedHashMap<>(replicas);
  }

  /** The job's metadata so far: its name and namespace. */
  protected ObjectMetaBuilder metadata() {
    return new ObjectMetaBuilder().withName(name).withNamespace(namespace);
  }
}
