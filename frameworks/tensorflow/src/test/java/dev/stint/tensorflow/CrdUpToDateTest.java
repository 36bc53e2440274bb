package dev.stint.tensorflow;

import dev.stint.core.testing.CheckedInCrdTest;
import java.io.IOException;

/** crds/ holds exactly the CRD this build generates (see {@link CheckedInCrdTest}). */
class CrdUpToDateTest extends CheckedInCrdTest {
  static final String CRD_FILE = "tfjobs.kubeflow.org-v1.yml";

  static String generatedCrd() throws IOException {
    return CheckedInCrdTest.generatedCrd(CrdUpToDateTest.class, CRD_FILE);
  }

  @Override
  protected String generatedFile() {
    return CRD_FILE;
  }
}
