package dev.stint.kubeclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How a watch's body is cut into lines and decoded: {@link StreamLines} alone, fed the pieces the HTTP client hands. */
class StreamLinesTest {
  @Test
  void aStreamWithoutNewlinesEndsInAnErrorInsteadOfGrowingWithoutBound() {
    Queue<String> out = new ArrayDeque<>();
    StreamLines splitter = new StreamLines(out, 100);
    splitter.accept(ByteBuffer.wrap(new byte[60]));
    assertThatThrownBy(() -> splitter.accept(ByteBuffer.wrap(new byte[60])))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("longer than 100 bytes without a newline");
    assertThat(out).isEmpty();
  }

  static Stream<Arguments> pieces() {
    byte[] accented = "{\"a\":\"é€\"}\n".getBytes(StandardCharsets.UTF_8); // é is 2 bytes, € is 3
    return Stream.of(
        Arguments.of("one line in one piece", pieces("{\"a\":1}\n"), List.of("{\"a\":1}"), 0),
        Arguments.of("two lines in one piece", pieces("{}\n{\"b\":2}\n"), List.of("{}", "{\"b\":2}"), 0),
        Arguments.of("a line in three pieces", pieces("{\"a\"", ":1", "}\n"), List.of("{\"a\":1}"), 0),
        Arguments.of("characters cut between pieces", List.of(Arrays.copyOfRange(accented, 0, 8),
            Arrays.copyOfRange(accented, 8, 10), Arrays.copyOfRange(accented, 10, accented.length)),
            List.of("{\"a\":\"é€\"}"), 0),
        Arguments.of("a line's end and the next's start in one piece", pieces("{\"a\"", ":1}\n{\"b\"", ":2}\n"),
            List.of("{\"a\":1}", "{\"b\":2}"), 0),
        Arguments.of("empty lines skipped", pieces("\n{}\n\n"), List.of("{}"), 0),
        Arguments.of("a line not yet ended is held", pieces("{}\n{\"b\""), List.of("{}"), 4));
  }

  private static List<byte[]> pieces(String... pieces) {
    return Stream.of(pieces).map(piece -> piece.getBytes(StandardCharsets.UTF_8)).toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pieces")
  void linesAreCutOnNewlinesAndDecodedOnce(String name, List<byte[]> pieces, List<String> lines, int pending) {
    for (boolean direct : new boolean[] {false, true}) {
      Queue<String> out = new ArrayDeque<>();
      StreamLines splitter = new StreamLines(out);
      for (byte[] piece : pieces) {
        splitter.accept(buffer(piece, direct));
      }
      assertThat(new ArrayList<>(out)).as("direct buffers: " + direct).containsExactlyElementsOf(lines);
      assertThat(splitter.pending()).isEqualTo(pending);
    }
  }

  /** The piece's bytes, inside a larger buffer at an offset (or a direct one), as the HTTP client hands them. */
  private static ByteBuffer buffer(byte[] piece, boolean direct) {
    byte[] bytes = new byte[piece.length + 2];
    System.arraycopy(piece, 0, bytes, 2, piece.length);
    if (direct) {
      ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length);
      buffer.put(bytes).flip();
      return buffer.position(2).slice();
    }
    return ByteBuffer.wrap(bytes, 2, piece.length).slice();
  }
}
