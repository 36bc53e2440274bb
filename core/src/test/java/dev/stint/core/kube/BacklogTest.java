package dev.stint.core.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BacklogTest {
  @Test
  void refusesWhatWouldPassTheBudgetAndTakesAgainOnceDrained() throws InterruptedException {
    Backlog<String> backlog = new Backlog<>(10, String::length);
    assertThat(backlog.offer("abcd")).isTrue();
    assertThat(backlog.offer("efgh")).isTrue();
    assertThat(backlog.offer("ijk")).as("4 + 4 + 3 > 10").isFalse();
    assertThat(backlog.offer("ij")).isTrue();
    assertThat(backlog.bytes()).isEqualTo(10);
    assertThat(backlog.size()).isEqualTo(3);

    assertThat(backlog.poll()).isEqualTo("abcd");
    assertThat(backlog.offer("ijk")).isTrue();
    assertThat(backlog.poll(1, TimeUnit.MILLISECONDS)).isEqualTo("efgh");
    assertThat(backlog.poll()).isEqualTo("ij");
    assertThat(backlog.poll()).isEqualTo("ijk");
    assertThat(backlog.poll()).isNull();
    assertThat(backlog.bytes()).isZero();
  }

  @Test
  void anItemLargerThanTheBudgetFitsAnEmptyQueueAlone() {
    Backlog<String> backlog = new Backlog<>(3, String::length);
    assertThat(backlog.offer("a long message")).isTrue();
    assertThat(backlog.offer("b")).isFalse();
    backlog.poll();
    assertThat(backlog.offer("b")).isTrue();
  }
}
