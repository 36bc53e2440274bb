package dev.stint.pytorch;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** One entry of {@code spec.elasticPolicy.rdzvConf}: an extra rendezvous setting passed on as {@code key=value}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RdzvConf {

  @JsonProperty("key")
  @JsonPropertyDescription("The setting's name.")
  private String key;

  @JsonProperty("value")
  @JsonPropertyDescription("The setting's value.")
  private String value;

  public RdzvConf() { }

  public RdzvConf(String key, String value) {
    this.key = key;
    this.value = value;
  }

  public String getKey() { return key; }
  public void setKey(String key) { this.key = key; }
  public String getValue() { return value; }
  public void setValue(String value) { this.value = value; }

  @Override public boolean equals(Object o) {
    return o instanceof RdzvConf c && Objects.equals(key, c.key) && Objects.equals(value, c.value);
  }

  @Override public int hashCode() { return Objects.hash(key, value); }
}
