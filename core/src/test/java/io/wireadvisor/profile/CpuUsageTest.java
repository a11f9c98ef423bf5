package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The profile's {@code cpu}: written, read back, merged, refused when inconsistent. */
class CpuUsageTest {
  @Test
  void roundTripsThroughTheProfileJson() throws Exception {
    TrafficProfile p = new TrafficProfile();
    p.addCpu(new CpuUsage(20_000_000_000L, 4_000_000_000L, 2, 39_000_000_000L, 40_000_000_000L)
        .withServerNanos(7_000_000_000L).withHostCpuWaitNanos(12_000_000_000L));
    String json = ProfileJson.toJson(p);
    assertThat(json).contains("\"cpu\"").contains("\"serverNanos\" : 7000000000").contains("\"hostBusyNanos\"")
        .contains("\"hostCpuWaitNanos\" : 12000000000");
    TrafficProfile back = ProfileJson.fromJson(json);
    assertThat(back.cpu()).isEqualTo(p.cpu());
    assertThat(back).isEqualTo(p);
    assertThat(back.cpu().hostBusyShare()).isEqualTo(0.975);
    assertThat(back.cpu().hostCpuWaitShare()).isEqualTo(0.6);
  }

  @Test
  void unknownHostAndServerAreLeftOut() throws Exception {
    TrafficProfile p = new TrafficProfile();
    p.addCpu(new CpuUsage(1_000_000_000L, 300_000_000L, 4, 0, 0));
    String json = ProfileJson.toJson(p);
    assertThat(json).doesNotContain("hostNanos").doesNotContain("serverNanos").doesNotContain("hostCpuWaitNanos");
    CpuUsage back = ProfileJson.fromJson(json).cpu();
    assertThat(back.hostKnown()).isFalse();
    assertThat(back.hostBusyShare()).isEqualTo(-1);
    assertThat(back.serverNanos()).isEqualTo(-1);
    assertThat(back.hostCpuWaitNanos()).isEqualTo(-1);
    assertThat(back.hostCpuWaitShare()).isEqualTo(-1);
    assertThat(ProfileJson.fromJson(ProfileJson.toJson(new TrafficProfile())).cpu()).isNull();
  }

  @Test
  void mergesAddUpAndKeepTheServerOnlyWhenEveryPartHasIt() {
    TrafficProfile a = new TrafficProfile();
    a.addCpu(new CpuUsage(10, 4, 2, 9, 10).withServerNanos(3).withHostCpuWaitNanos(8));
    TrafficProfile b = new TrafficProfile();
    b.addCpu(new CpuUsage(10, 2, 4, 5, 10).withServerNanos(1).withHostCpuWaitNanos(2));
    CpuUsage m = a.merge(b).cpu();
    assertThat(m.processNanos()).isEqualTo(6);
    assertThat(m.cores()).isEqualTo(4);
    assertThat(m.hostBusyShare()).isEqualTo(0.7);
    assertThat(m.serverNanos()).isEqualTo(4);
    assertThat(m.hostCpuWaitShare()).isEqualTo(0.5);
    TrafficProfile c = new TrafficProfile();
    c.addCpu(new CpuUsage(10, 2, 2, 5, 10));
    assertThat(a.merge(c).cpu().serverNanos()).isEqualTo(-1);
    assertThat(a.merge(c).cpu().hostCpuWaitNanos()).isEqualTo(-1);
    // A profile without cpu adds nothing.
    assertThat(a.merge(new TrafficProfile()).cpu()).isEqualTo(a.cpu());
  }

  @Test
  void refusesBusyAboveTotalAndUnknownFields() {
    assertThatThrownBy(() -> new CpuUsage(1, 1, 1, 11, 10)).isInstanceOf(IllegalArgumentException.class);
    String json = ProfileJson.toJson(new TrafficProfile());
    String bad = json.substring(0, json.lastIndexOf('}'))
        + ",\"cpu\":{\"windowNanos\":1,\"processNanos\":1,\"cores\":1,\"hostBusyNanos\":5,\"hostNanos\":4}}";
    assertThatThrownBy(() -> ProfileJson.fromJson(bad)).isInstanceOf(ProfileFormatException.class)
        .hasMessageContaining("cpu.hostBusyNanos");
    String extra = json.substring(0, json.lastIndexOf('}'))
        + ",\"cpu\":{\"windowNanos\":1,\"processNanos\":1,\"cores\":1,\"threads\":3}}";
    assertThatThrownBy(() -> ProfileJson.fromJson(extra)).isInstanceOf(ProfileFormatException.class)
        .hasMessageContaining("threads");
    String waitTooLong = json.substring(0, json.lastIndexOf('}'))
        + ",\"cpu\":{\"windowNanos\":10,\"processNanos\":1,\"cores\":1,\"hostCpuWaitNanos\":11}}";
    assertThatThrownBy(() -> ProfileJson.fromJson(waitTooLong)).isInstanceOf(ProfileFormatException.class)
        .hasMessageContaining("cpu.hostCpuWaitNanos");
  }
}
