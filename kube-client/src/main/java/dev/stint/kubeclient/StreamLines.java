package dev.stint.kubeclient;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Queue;

/**
 * Cuts a watch stream's bytes into lines ({@link StreamedWatch}) and decodes each once. A newline byte never occurs
 * inside a UTF-8 sequence, so lines are cut on bytes; empty lines are skipped.
 */
final class StreamLines {
  /** The longest line taken: beyond it the stream is no watch's (the API server refuses objects past a few MiB). */
  static final int MAX_LINE = 64 << 20;
  private final Queue<String> lines;
  private final int maxLine;
  private byte[] partial = new byte[8192];
  private int partialLength;

  StreamLines(Queue<String> lines) {
    this(lines, MAX_LINE);
  }

  StreamLines(Queue<String> lines, int maxLine) {
    this.lines = lines;
    this.maxLine = maxLine;
  }

  /** Takes the buffer's remaining bytes; throws {@link IllegalStateException} past the longest line. */
  void accept(ByteBuffer buffer) {
    while (buffer.hasRemaining()) {
      int start = buffer.position();
      int end = indexOfNewline(buffer, start, buffer.limit());
      if (end < 0) {
        keep(buffer, start, buffer.limit());
        buffer.position(buffer.limit());
        return;
      }
      if (partialLength == 0) {
        addLine(decode(buffer, start, end));
      } else {
        keep(buffer, start, end);
        addLine(new String(partial, 0, partialLength, StandardCharsets.UTF_8));
        partialLength = 0;
      }
      buffer.position(end + 1);
    }
  }

  private void addLine(String line) {
    if (!line.isEmpty()) {
      lines.add(line);
    }
  }

  private static int indexOfNewline(ByteBuffer buffer, int from, int to) {
    for (int i = from; i < to; i++) {
      if (buffer.get(i) == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static String decode(ByteBuffer buffer, int from, int to) {
    if (buffer.hasArray()) {
      return new String(buffer.array(), buffer.arrayOffset() + from, to - from, StandardCharsets.UTF_8);
    }
    byte[] bytes = new byte[to - from];
    buffer.get(from, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private void keep(ByteBuffer buffer, int from, int to) {
    int length = to - from;
    if ((long) partialLength + length > maxLine) {
      throw new IllegalStateException("a watch event longer than " + maxLine + " bytes without a newline: the answer "
          + "is not a watch's stream of events");
    }
    if (partialLength + length > partial.length) {
      partial = Arrays.copyOf(partial, Math.max(partial.length * 2, partialLength + length));
    }
    buffer.get(from, partial, partialLength, length);
    partialLength += length;
  }

  /** Bytes of a line not yet ended (tests). */
  int pending() {
    return partialLength;
  }
}
