package dev.stint.core.reconciler;

import dev.stint.core.decision.Observed;
import dev.stint.core.kueue.KueueLink;
import dev.stint.spi.TrainingJob;
import java.time.Instant;

/**
 * One reconcile of one job, as observed: what every later step of the pass reads.
 *
 * @param job the job decided on: the cache's, with the status last written when the cache is older, and the queue
 *     and priority labels Kueue's webhook would have given it
 * @param observed its children in the informers' caches, with the pods whose deletion this process sent (the cache
 *     lagging) seen terminating
 * @param queueing what Kueue says of it ({@link KueueLink#follow})
 * @param now the pass's time, from the reconciler's clock
 */
record Pass<J extends TrainingJob<?>>(J job, Observed observed, KueueLink.Followed queueing, Instant now) {

  String uid() {
    return job.getMetadata().getUid();
  }
}
