package dev.stint.mpi;

import dev.stint.testkit.FrameworkContractTest;
import java.nio.file.Path;

/** The shared framework contract, with upstream's mpi-pi example as the sample. */
class MpiFrameworkContractTest extends FrameworkContractTest<MPIJob> {

  MpiFrameworkContractTest() {
    super(MpiFramework::new, Path.of(System.getProperty("stint.root", "../.."), "examples/mpi-pi.yaml"));
  }
}
