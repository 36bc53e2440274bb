package dev.stint.operator.testkind;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** A minimal job kind for tests of the operator module, which has no built-in framework on its test class path. */
@Group("test.stint.dev")
@Version("v1")
public class SleepJob extends CustomResource<SleepJobSpec, JobStatus> implements TrainingJob<SleepJobSpec>, Namespaced {
}
