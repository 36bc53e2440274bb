package dev.stint.core.serving;

/**
 * Whether a kind can be served now, and if not, why in words a person can act on.
 *
 * @param reason null when served
 */
public record KindVerdict(boolean served, String reason) {
  public static final KindVerdict SERVED = new KindVerdict(true, null);

  static KindVerdict down(String reason) {
    return new KindVerdict(false, reason);
  }
}
