package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StatementTableTest {
  @Test
  void behavesLikeAHashMapUnderRandomPutsAndRemoves() {
    ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
    ProfileRecorder.ShapeHandle[] entries = new ProfileRecorder.ShapeHandle[8];
    for (int i = 0; i < entries.length; i++) {
      entries[i] = recorder.shape("SELECT " + i);
    }
    StatementTable map = new StatementTable();
    Map<Integer, ProfileRecorder.ShapeHandle> model = new HashMap<>();
    Random r = new Random(42);
    for (int step = 0; step < 200_000; step++) {
      // Small id range so that probe runs collide, wrap around and shift on removal.
      int id = r.nextInt(3000) * (r.nextBoolean() ? 1 : 1 << 20);
      switch (r.nextInt(3)) {
        case 0:
          ProfileRecorder.ShapeHandle e = entries[r.nextInt(entries.length)];
          map.put(id, e);
          model.put(id, e);
          break;
        case 1:
          assertThat(map.remove(id)).isSameAs(model.remove(id));
          break;
        default:
          assertThat(map.get(id)).isSameAs(model.get(id));
      }
      assertThat(map.size()).isEqualTo(model.size());
    }
    for (Map.Entry<Integer, ProfileRecorder.ShapeHandle> e : model.entrySet()) {
      assertThat(map.get(e.getKey())).isSameAs(e.getValue());
    }
  }
}
