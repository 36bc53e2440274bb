package dev.stint.testdoubles;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A minimal kind for tests of the engine and of the client workarounds (replica types Leader and Worker): one class for
 * core's tests and kube-client's, which cannot see core's (core depends on kube-client).
 */
@Group("test.stint.dev")
@Version("v1")
@Kind("TestJob")
@Plural("testjobs") // as the built-in kinds do: fabric8 would otherwise run its pluralizer for every object read
public class TestJob extends CustomResource<TestJobSpec, JobStatus> implements TrainingJob<TestJobSpec>, Namespaced {
}
