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
 * its replica types and fields and builds its job from {@link #metadata()} (or {@link #storedMetadata()}) and
 * {@link #replicaSpecs()}: {@code TestJaxJobs.job("j").namespace("ns").workers(2).build()}. A kind whose replica
 * types all run one container (PyTorch's {@code pytorch}) names it and its image once, in the constructor, and adds
 * types with {@link #replicaType(String, Integer)}.
 *
 * @param <J> the kind's custom resource class
 * @param <F> the fixture class itself, so that every setter returns it
 */
public abstract class JobFixture<J extends TrainingJob<?>, F extends JobFixture<J, F>> {

  private final String name;
  private final String container;
  private final String image;
  private String namespace = "default";
  private final Map<String, ReplicaSpec> replicas = new LinkedHashMap<>();

  /** A fixture for a job of this name, whose replica types the kind's fixture builds with their own containers. */
  protected JobFixture(String name) {
    this(name, null, null);
  }

  /**
   * A fixture for a job of this name whose replica types, added with {@link #replicaType(String, Integer)}, each get a
   * template of one container of this name and image.
   */
  protected JobFixture(String name, String container, String image) {
    this.name = name;
    this.container = container;
    this.image = image;
  }

  /** This fixture, typed as its own class ({@code F}, which each fixture declares as itself). */
  @SuppressWarnings("unchecked")
  protected F self() {
    return (F) this;
  }

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

  /**
   * Adds a replica type with a replica count (null: unset) and a template of the kind's one container, or replaces
   * one added before; for a fixture made with {@link #JobFixture(String, String, String)}.
   */
  public F replicaType(String type, Integer replicas) {
    if (container == null) {
      throw new IllegalStateException("no container named for the replica types: use replicaType(type, spec)");
    }
    return replicaType(type, ReplicaFixtures.replicaSpec(replicas, container, image));
  }

  /** Gives the first container of a replica type added before a port of this name and number. */
  public F containerPort(String type, String portName, int port) {
    return template(type, pod -> pod.editFirstContainer()
        .addNewPort().withName(portName).withContainerPort(port).endPort().endContainer());
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

  /**
   * The job's metadata as the API server stores it: its name and namespace, the uid {@code uid-<name>} and
   * generation 1.
   */
  protected ObjectMetaBuilder storedMetadata() {
    return metadata().withUid("uid-" + name).withGeneration(1L);
  }
}
