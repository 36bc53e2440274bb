package dev.stint.pytorch;

import dev.stint.testkit.FrameworkContractTest;
import java.nio.file.Path;

/** The shared framework contract, with upstream's pytorch-simple example as the sample. */
class PyTorchFrameworkContractTest extends FrameworkContractTest<PyTorchJob> {

  PyTorchFrameworkContractTest() {
    super(PyTorchFramework::new, Path.of(System.getProperty("stint.root", "../.."), "examples/pytorch-simple.yaml"));
  }

  /** An elastic job with a metric: the kind that gets the autoscaler PyTorch declares. */
  @Override
  protected PyTorchJob jobWithSupportingResources() {
    PyTorchJob job = TestPyTorchJobs.job("elastic").workers(2).elastic(e -> {
      e.setMinReplicas(1);
      e.setMaxReplicas(4);
      e.setMetrics(java.util.List.of(TestPyTorchJobs.cpuUtilization(80)));
    }).build();
    job.getMetadata().setUid("uid-elastic");
    return job;
  }
}
