package dev.stint.core.testing;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import dev.stint.testdoubles.TestJob;
import dev.stint.testdoubles.TestJobSpec;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/** The kind of {@link FaultyFramework}: the same spec as {@link TestJob}. */
@Group("test.stint.dev")
@Version("v1")
@Kind("FaultyJob")
public class FaultyJob extends CustomResource<TestJobSpec, JobStatus> implements TrainingJob<TestJobSpec>, Namespaced {

  /** A FaultyJob with the spec of a {@link TestJobs} fixture. */
  public static FaultyJob from(TestJob template) {
    FaultyJob job = new FaultyJob();
    job.setMetadata(template.getMetadata());
    job.setSpec(template.getSpec());
    return job;
  }
}
