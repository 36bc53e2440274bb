package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Map;

/** One rule of {@code spec.runPolicy.successPolicy.rules}: minimum succeeded replicas per replica type. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("One rule: the minimum succeeded replicas per replica type.")
public class SuccessRule {

  @JsonPropertyDescription("Minimum succeeded replicas per replica type, for example {Worker: 3}. The rule holds when "
      + "every listed type has at least that many succeeded replicas.")
  @Required
  @Size(min = 1, max = 8)
  private Map<String, Integer> succeeded;

  public Map<String, Integer> getSucceeded() { return succeeded; }
  public void setSucceeded(Map<String, Integer> succeeded) { this.succeeded = succeeded; }
}
