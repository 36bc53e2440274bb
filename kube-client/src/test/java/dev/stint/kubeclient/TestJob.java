package dev.stint.kubeclient;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The recorded job's kind (cached/testjob.json), as core's tests have it ({@code dev.stint.core.testing.TestJob}):
 * a copy, since this module's tests cannot see core's, which depends on this module.
 */
@Group("test.stint.dev")
@Version("v1")
@Kind("TestJob")
@Plural("testjobs") // as the built-in kinds do: fabric8 would otherwise run its pluralizer for every object read
public class TestJob extends CustomResource<TestJobSpec, JobStatus> implements TrainingJob<TestJobSpec>, Namespaced {
}
