package dev.stint.core.testing;

import dev.stint.spi.ReplicaId;
import dev.stint.testdoubles.TestJob;

/**
 * A framework written for SPI 1.x: it overrides {@code podName}, which SPI 2.0 moved to {@code WithPodNames}, without
 * implementing that interface, so the engine would never call it.
 */
public class StrandedFramework extends TestFramework {

  public String podName(TestJob job, ReplicaId replica) {
    return job.getMetadata().getName() + "-" + replica.index();
  }
}
