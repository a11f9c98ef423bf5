package io.wireadvisor.advisor;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import java.util.List;

/**
 * A rule whose recommendation and withheld items come from one judgment of the profile: it
 * implements {@link #judge} alone, and {@link #evaluate} and {@link #withheld} are its two halves.
 */
abstract class JudgedRule implements Rule {
  @Override
  public abstract Judgment judge(TrafficProfile profile, ServerView server);

  @Override
  public final Recommendation evaluate(TrafficProfile profile, ServerView server) {
    return judge(profile, server).recommendation();
  }

  @Override
  public final List<Withheld> withheld(TrafficProfile profile, ServerView server) {
    return judge(profile, server).withheld();
  }
}
