package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * {@code spec.runPolicy.successPolicy} (a Stint addition): rules that override the kind's default success policy.
 * The first rule that holds wins; replicas still running then are stopped, and the job is a partial success when some
 * replica failed.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SuccessPolicySpec {

  @JsonPropertyDescription("The job succeeds when any rule holds (checked in order).")
  @Required
  @Size(min = 1, max = 8)
  private List<SuccessRule> rules;

  public List<SuccessRule> getRules() { return rules; }
  public void setRules(List<SuccessRule> rules) { this.rules = rules; }
}
