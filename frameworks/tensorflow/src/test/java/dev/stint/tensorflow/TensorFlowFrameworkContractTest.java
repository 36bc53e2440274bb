package dev.stint.tensorflow;

import dev.stint.testkit.FrameworkContractTest;
import java.nio.file.Path;

/** The shared framework contract, with upstream's tf-dist-mnist example as the sample. */
class TensorFlowFrameworkContractTest extends FrameworkContractTest<TFJob> {

  TensorFlowFrameworkContractTest() {
    super(TensorFlowFramework::new, Path.of(System.getProperty("stint.root", "../.."), "examples/tf-dist-mnist.yaml"));
  }
}
