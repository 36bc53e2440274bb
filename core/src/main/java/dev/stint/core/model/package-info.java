/**
 * The engine's shared vocabulary: the framework as the engine calls it ({@link dev.stint.core.model.EngineFramework}),
 * the labels on a job's children ({@link dev.stint.core.model.JobLabels}), the events recorded on a job
 * ({@link dev.stint.core.model.JobEvent}) and the changes a decision asks of the cluster
 * ({@link dev.stint.core.model.Action}). The decision and the I/O around it (kube, kueue, reconciler, serving,
 * registry) both speak it, so it depends on neither: the decision stays at the bottom of the engine, and the I/O
 * reaches it without a package cycle ({@code ArchitectureTest} in the operator module checks both).
 */
package dev.stint.core.model;
