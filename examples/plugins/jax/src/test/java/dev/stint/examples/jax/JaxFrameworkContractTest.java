package dev.stint.examples.jax;

import dev.stint.testkit.FrameworkContractTest;
import java.nio.file.Path;

/** Stint's framework contract, with this project's example-jaxjob.yaml as the sample. */
class JaxFrameworkContractTest extends FrameworkContractTest<JAXJob> {

  JaxFrameworkContractTest() {
    super(JaxFramework::new, Path.of("example-jaxjob.yaml"));
  }
}
