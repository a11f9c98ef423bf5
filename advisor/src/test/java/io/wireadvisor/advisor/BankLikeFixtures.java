package io.wireadvisor.advisor;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;

/** Public door to the bank-like fixtures for tests in other packages. */
public final class BankLikeFixtures {
  private BankLikeFixtures() {}

  public static TrafficProfile scenario(int n) {
    return BankLikeProfiles.scenario(n);
  }

  public static ServerView tidb(int n) {
    return BankLikeProfiles.tidb(n);
  }
}
