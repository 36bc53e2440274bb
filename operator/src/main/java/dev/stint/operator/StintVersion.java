package dev.stint.operator;

/**
 * The version of this build of Stint: the {@code Implementation-Version} of the operator jar's manifest (the Maven
 * project's version, {@code 0.1.0-SNAPSHOT} on {@code main}, the release's in a release build), or {@code dev} when
 * the classes do not run from that jar (an IDE, a module's own tests).
 */
final class StintVersion {
  private StintVersion() { }

  static String current() {
    String version = StintVersion.class.getPackage().getImplementationVersion();
    return version == null || version.isBlank() ? "dev" : version;
  }
}
