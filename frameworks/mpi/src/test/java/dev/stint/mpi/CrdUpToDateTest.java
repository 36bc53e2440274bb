package dev.stint.mpi;

import dev.stint.core.testing.CheckedInCrdTest;
import java.io.IOException;

/** crds/ holds exactly the CRD this build generates (see {@link CheckedInCrdTest}). */
class CrdUpToDateTest extends CheckedInCrdTest {
  static final String CRD_FILE = "mpijobs.kubeflow.org-v1.yml";

  static String generatedCrd() throws IOException {
    return CheckedInCrdTest.generatedCrd(CrdUpToDateTest.class, CRD_FILE);
  }

  @Override
  protected String generatedFile() {
    return CRD_FILE;
  }

  /** The checked-in name says which version of the kind it serves (the generator names the file after v1). */
  @Override
  protected String checkedInFile() {
    return "mpijobs.kubeflow.org-v2beta1.yml";
  }
}
