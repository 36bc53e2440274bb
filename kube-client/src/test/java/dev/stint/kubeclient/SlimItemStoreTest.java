package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import org.junit.jupiter.api.Test;

class SlimItemStoreTest {
  @Test
  void keepsObjectsByNamespaceAndNameWithoutTheirManagedFields() {
    Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").withResourceVersion("7")
        .addToLabels("a", "b")
        .withManagedFields(new ManagedFieldsEntryBuilder().withManager("kube-scheduler").build())
        .endMetadata().build();
    SlimItemStore<Pod> store = new SlimItemStore<>();
    store.put(store.getKey(pod), pod);
    Pod cached = store.get("ns/p");
    assertThat(cached.getMetadata().getManagedFields()).isNullOrEmpty();
    assertThat(cached.getMetadata().getLabels()).containsEntry("a", "b");
    assertThat(cached.getMetadata().getResourceVersion()).isEqualTo("7");
  }

  @Test
  void keepsOfAPodSpecTheContainerNamesAndTheScheduling() {
    Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata()
        .withNewSpec().withNodeName("n1").withSchedulerName("volcano").withRestartPolicy("OnFailure")
          .addNewInitContainer().withName("init-pytorch").withCommand("sh", "-c", "until nslookup m; do sleep 1; done")
          .endInitContainer()
          .addNewContainer().withName("pytorch").withImage("img").addToCommand("python3")
            .addNewEnv().withName("RANK").withValue("1").endEnv()
            .addNewVolumeMount().withName("token").withMountPath("/var/run").endVolumeMount()
          .endContainer()
          .addNewVolume().withName("token").withNewEmptyDir().endEmptyDir().endVolume()
        .endSpec()
        .withNewStatus().withPhase("Running").endStatus().build();
    SlimItemStore<Pod> store = new SlimItemStore<>();
    store.put(store.getKey(pod), pod);
    Pod cached = store.get("ns/p");
    assertThat(cached.getSpec().getContainers()).extracting(c -> c.getName()).containsExactly("pytorch");
    assertThat(cached.getSpec().getContainers().get(0).getEnv()).isEmpty();
    assertThat(cached.getSpec().getContainers().get(0).getCommand()).isEmpty();
    assertThat(cached.getSpec().getContainers().get(0).getVolumeMounts()).isEmpty();
    assertThat(cached.getSpec().getInitContainers()).extracting(c -> c.getName()).containsExactly("init-pytorch");
    assertThat(cached.getSpec().getInitContainers().get(0).getCommand()).isEmpty();
    assertThat(cached.getSpec().getVolumes()).isEmpty();
    assertThat(cached.getSpec().getNodeName()).isEqualTo("n1");
    assertThat(cached.getSpec().getSchedulerName()).isEqualTo("volcano");
    assertThat(cached.getStatus().getPhase()).isEqualTo("Running");
  }

  @Test
  void keepsTheKindsLauncherJobsWholeAndOtherJobsAsTheirNameAlone() {
    Job launcher = job("pi-launcher", "MPIJob");
    Job other = job("nightly-backup", "CronJob");
    SlimItemStore<Job> store = SlimItemStore.forCarrierJobs("MPIJob", removed -> { });
    store.put(store.getKey(launcher), launcher);
    store.put(store.getKey(other), other);

    Job cached = store.get("ns/pi-launcher");
    assertThat(cached.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("role", "launcher");
    assertThat(cached.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()).isEmpty();
    assertThat(cached.getStatus().getActive()).isEqualTo(1);
    Job slim = store.get("ns/nightly-backup");
    assertThat(slim.getMetadata().getName()).isEqualTo("nightly-backup");
    assertThat(slim.getMetadata().getOwnerReferences()).isEmpty();
    assertThat(slim.getSpec()).isNull();
    assertThat(slim.getStatus()).isNull();
  }

  private static Job job(String name, String ownerKind) {
    return new JobBuilder().withNewMetadata().withName(name).withNamespace("ns").addNewOwnerReference()
        .withKind(ownerKind).withName("owner").withUid("u").withController(true).endOwnerReference().endMetadata()
        .withNewSpec().withNewTemplate().withNewMetadata().addToLabels("role", "launcher").endMetadata()
        .withNewSpec().addNewContainer().withName("main").addNewEnv().withName("A").withValue("1").endEnv()
        .endContainer().endSpec().endTemplate().endSpec()
        .withNewStatus().withActive(1).endStatus().build();
  }
}
