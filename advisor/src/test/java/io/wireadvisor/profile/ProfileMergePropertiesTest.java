package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class ProfileMergePropertiesTest {

  @Property(tries = 300)
  void mergeIsCommutative(@ForAll long seedA, @ForAll long seedB) {
    TrafficProfile a = RandomProfiles.profile(seedA);
    TrafficProfile b = RandomProfiles.profile(seedB);
    assertThat(a.merge(b)).isEqualTo(b.merge(a));
  }

  @Property(tries = 300)
  void mergeIsAssociative(@ForAll long seedA, @ForAll long seedB, @ForAll long seedC) {
    TrafficProfile a = RandomProfiles.profile(seedA);
    TrafficProfile b = RandomProfiles.profile(seedB);
    TrafficProfile c = RandomProfiles.profile(seedC);
    assertThat(a.merge(b).merge(c)).isEqualTo(a.merge(b.merge(c)));
  }

  @Property(tries = 200)
  void emptyProfileIsTheIdentityOfMerge(@ForAll long seed) {
    TrafficProfile a = RandomProfiles.profile(seed);
    assertThat(a.merge(new TrafficProfile())).isEqualTo(a);
    assertThat(new TrafficProfile().merge(a)).isEqualTo(a);
  }

  @Property(tries = 200)
  void mergeAddsEveryCountAndLosesNothing(@ForAll long seedA, @ForAll long seedB) {
    TrafficProfile a = RandomProfiles.profile(seedA);
    TrafficProfile b = RandomProfiles.profile(seedB);
    TrafficProfile m = TrafficProfile.mergeAll(List.of(a, b));
    for (CommandType type : CommandType.values()) {
      assertThat(m.count(type)).isEqualTo(a.count(type) + b.count(type));
    }
    for (Via via : Via.values()) {
      assertThat(m.total(via)).isEqualTo(a.total(via) + b.total(via));
    }
    assertThat(m.totalProbes()).isEqualTo(a.totalProbes() + b.totalProbes());
    assertThat(m.connections().connections())
        .isEqualTo(a.connections().connections() + b.connections().connections());
  }

  @Property(tries = 300)
  void jsonRoundTripIsLossless(@ForAll long seed) throws Exception {
    TrafficProfile p = RandomProfiles.profile(seed);
    TrafficProfile back = ProfileJson.fromJson(ProfileJson.toJson(p));
    assertThat(back).isEqualTo(p);
    assertThat(ProfileJson.toJson(back)).isEqualTo(ProfileJson.toJson(p));
  }

  @Property(tries = 100)
  void mergingDoesNotChangeItsInputs(@ForAll long seedA, @ForAll long seedB) throws Exception {
    TrafficProfile a = RandomProfiles.profile(seedA);
    String before = ProfileJson.toJson(a);
    a.merge(RandomProfiles.profile(seedB));
    assertThat(ProfileJson.toJson(a)).isEqualTo(before);
  }
}
