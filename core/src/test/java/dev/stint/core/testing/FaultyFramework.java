package dev.stint.core.testing;

import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.SupportingResource;
import dev.stint.spi.TrainingFramework;
import dev.stint.spi.WithSupportingResources;
import dev.stint.spi.WithValidation;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;

/**
 * A framework that throws where it is told to: in its constructor, in one of the methods the operator calls at start,
 * or in one called while a job is reconciled ({@code holdsWhileRunning}: the success policy, once a replica runs).
 * Otherwise it behaves like {@link TestFramework} (Workers only, success
 * when all succeeded). Created with the no-argument constructor (as a plugin is), it reads the fault from the resource
 * {@value #FAULT_RESOURCE} ({@code fault=<method>}) of its own class loader, so every plugin jar can carry its own.
 */
public class FaultyFramework implements TrainingFramework<FaultyJob>, WithValidation<FaultyJob>,
    WithSupportingResources<FaultyJob> {
  public static final String FAULT_RESOURCE = "stint-fault.properties";
  public static final String WORKER = "Worker";

  private final String fault;

  public FaultyFramework() {
    this(faultOfThisJar());
  }

  public FaultyFramework(String fault) {
    this.fault = fault;
    failIf("constructor");
  }

  private static String faultOfThisJar() {
    try (InputStream in = FaultyFramework.class.getClassLoader().getResourceAsStream(FAULT_RESOURCE)) {
      Properties properties = new Properties();
      if (in != null) {
        properties.load(in);
      }
      return properties.getProperty("fault", "none");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void failIf(String method) {
    if (method.equals(fault)) {
      throw new IllegalStateException("injected fault in " + method);
    }
  }

  @Override public String name() { failIf("name"); return "faulty"; }

  @Override public Class<FaultyJob> jobType() { failIf("jobType"); return FaultyJob.class; }

  @Override public List<String> replicaTypes() { failIf("replicaTypes"); return List.of(WORKER); }

  @Override public FrameworkDefaults defaults() {
    return new FrameworkDefaults("main", "faulty-port", 7778, "Never");
  }

  @Override public List<String> validate(FaultyJob job) { failIf("validate"); return List.of(); }

  @Override public boolean isLeader(FaultyJob job, ReplicaId replica) { return replica.index() == 0; }

  @Override public void wire(FaultyJob job, ReplicaId replica, Pod pod) { failIf("wire"); }

  @Override public SuccessPolicy successPolicy(FaultyJob job) {
    failIf("successPolicy");
    return outcomes -> {
      failIf("holds");
      if (!outcomes.of(WORKER).active().isEmpty()) {
        failIf("holdsWhileRunning");
      }
      return SuccessPolicy.allOf(WORKER).holds(outcomes);
    };
  }

  @Override public List<SupportingResource> supportingResources(FaultyJob job, ReplicaOutcomes outcomes) {
    failIf("supportingResources");
    return List.of();
  }

  @Override public List<Class<? extends io.fabric8.kubernetes.api.model.HasMetadata>> supportingResourceTypes() {
    return List.of();
  }
}
