package dev.stint.tensorflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;

/**
 * JSON written by Jackson as Go's {@code encoding/json} writes it, so that {@code TF_CONFIG} is byte for byte what the
 * Kubeflow training operator writes: compact, and with Go's escapes ({@code \n}, {@code \r}, {@code \t}, other control
 * characters, {@code <}, {@code >}, {@code &}, U+2028 and U+2029 as six-character escapes with lower-case hex digits;
 * Jackson's own escapes use upper case and would also differ for backspace and form feed).
 */
final class GoJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static {
    MAPPER.getFactory().setCharacterEscapes(new GoEscapes());
  }

  private GoJson() { }

  /** The value as compact JSON, with maps in their iteration order. */
  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final class GoEscapes extends CharacterEscapes {
    private final int[] ascii = standardAsciiEscapesForJSON();

    GoEscapes() {
      for (int c = 0; c < 0x20; c++) {
        ascii[c] = c == '\n' || c == '\r' || c == '\t' ? ESCAPE_STANDARD : ESCAPE_CUSTOM;
      }
      ascii['<'] = ESCAPE_CUSTOM;
      ascii['>'] = ESCAPE_CUSTOM;
      ascii['&'] = ESCAPE_CUSTOM;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      boolean escaped = ch < 0x20 || ch == '<' || ch == '>' || ch == '&' || ch == 0x2028 || ch == 0x2029;
      return escaped ? new SerializedString(String.format("\\u%04x", ch)) : null;
    }
  }
}
