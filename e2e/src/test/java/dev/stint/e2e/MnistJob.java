package dev.stint.e2e;

/** The upstream PyTorch MNIST example's job, sized by the test, as a user applies it. */
final class MnistJob {
  private MnistJob() { }

  /**
   * Applies, with kubectl into {@code ns}, a PyTorchJob of one master and {@code workers} workers, restartPolicy
   * OnFailure (PyTorch's default), running the upstream MNIST example's image.
   */
  static void apply(String ns, String name, int workers) {
    Kubectl.runWithInput(manifest(name, workers), "apply", "-n", ns, "-f", "-").assertOk();
  }

  /** The job's manifest, for a test that applies it otherwise (as another user, say). */
  static String manifest(String name, int workers) {
    return """
        apiVersion: kubeflow.org/v1
        kind: PyTorchJob
        metadata: {name: %s}
        spec:
          pytorchReplicaSpecs:
            Master:
              replicas: 1
              restartPolicy: OnFailure
              template:
                spec:
                  containers: [{name: pytorch, image: "docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727"}]
            Worker:
              replicas: %d
              restartPolicy: OnFailure
              template:
                spec:
                  containers: [{name: pytorch, image: "docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727"}]
        """.formatted(name, workers);
  }
}
