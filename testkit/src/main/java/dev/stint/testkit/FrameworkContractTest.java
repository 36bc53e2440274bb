package dev.stint.testkit;

import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The contract every framework passes, built-in or plugin, and the one class a plugin's test extends: give it the
 * framework's constructor and a canonical sample job (the kind's upstream example), as
 * {@code super(JaxFramework::new, Path.of("example-jaxjob.yaml"))}. It checks what the engine relies on, not what
 * the framework wires, in parts that each answer for one thing, all run by extending this class:
 * <ul>
 *   <li>{@link IdentityContract}: the kind identifies itself, loads as a plugin and sees only the SPI, the
 *       operator's client reads its watch events as fabric8 does, its sample job is valid;</li>
 *   <li>{@link ChildrenContract}: each replica gets one pod with the engine's labels, every name is stable (the
 *       engine creates a child only when none of that name exists), a declared supporting resource is made, and the
 *       framework never changes the job it is handed (the operator's cached object, shared by every reconcile);</li>
 *   <li>{@link OutcomeContract}: the success policy, pods that cannot run, and the failure policy's gang restart.</li>
 * </ul>
 * Override {@link #sampleJob()} or {@link #jobWithSupportingResources()} where the kind needs another job. For the
 * engine running the kind on a mock API server (suspend and resume with a fake kubelet), see
 * {@link FrameworkOnMockServerTest}.
 */
public abstract class FrameworkContractTest<J extends TrainingJob<?>> extends OutcomeContract<J> {

  /**
   * @param frameworks makes a new instance of the framework, through the constructor the operator uses
   * @param sample the manifest of a valid job of the kind with at least two replicas, usually the kind's example
   */
  protected FrameworkContractTest(Supplier<? extends TrainingFramework<J>> frameworks, Path sample) {
    super(frameworks, sample);
  }
}
