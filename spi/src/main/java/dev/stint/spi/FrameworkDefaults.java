package dev.stint.spi;

/**
 * Per-kind defaults, applied in memory by the engine (never written to the job).
 *
 * @param containerName the container that receives the framework port and whose exit code counts
 *     ({@code pytorch}, {@code tensorflow})
 * @param portName the name of the framework port ({@code pytorchjob-port})
 * @param port the framework port number added to the default container when it has no port of that name
 * @param restartPolicy the replica restart policy when a replica spec sets none
 */
public record FrameworkDefaults(String containerName, String portName, int port, String restartPolicy) { }
