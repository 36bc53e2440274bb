package dev.stint.core.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stint.core.testing.TestFramework;
import dev.stint.testdoubles.TestJob;
import dev.stint.testdoubles.TestJobSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/**
 * A plugin's job class whose spec class is not in the jar (a dependency not bundled): found by the probe, so the
 * plugin is refused alone instead of the operator failing to start when the kind is registered (a review's finding:
 * {@code TypeNotPresentException} from the watch reader's set-up ended the process).
 */
class FrameworkProbeClassesTest {

  @Test
  void aJobWhoseSpecClassIsMissingIsFound() throws Exception {
    Class<?> job = new PluginLike(TestJobSpec.class.getName()).loadClass(TestJob.class.getName());

    assertThatThrownBy(() -> FrameworkProbe.loadsClassesOf(job)).isInstanceOf(TypeNotPresentException.class)
        .hasMessageContaining(TestJobSpec.class.getName());
  }

  @Test
  void theProbeRefusesSuchAPluginNamingTheMissingClass() throws Exception {
    Class<?> job = new PluginLike(TestJobSpec.class.getName()).loadClass(TestJob.class.getName());
    TestFramework framework = new TestFramework() {
      @SuppressWarnings("unchecked")
      @Override public Class<TestJob> jobType() { return (Class<TestJob>) job; }
    };

    assertThatThrownBy(() -> FrameworkProbe.check(framework)).isInstanceOf(PluginRejected.class)
        .hasMessage("framework " + framework.getClass().getName() + ": jobType() threw "
            + "java.lang.TypeNotPresentException: Type " + TestJobSpec.class.getName() + " not present");
  }

  @Test
  void aCompleteJobLoadsItsOwnClassesAndLeavesTheOperatorsAlone() throws Exception {
    Class<?> job = new PluginLike(null).loadClass(TestJob.class.getName());

    assertThat(FrameworkProbe.loadsClassesOf(job)).extracting(Class::getName)
        .contains(TestJob.class.getName(), TestJobSpec.class.getName())
        .allMatch(name -> name.startsWith("dev.stint.testdoubles."));
  }

  /** Defines the test doubles' classes itself, as a plugin's loader does with its jar, and has none of {@code hidden}. */
  private static final class PluginLike extends ClassLoader {
    private final String hidden;

    PluginLike(String hidden) {
      super(FrameworkProbeClassesTest.class.getClassLoader());
      this.hidden = hidden;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        if (name.equals(hidden)) {
          throw new ClassNotFoundException(name);
        }
        if (!name.startsWith("dev.stint.testdoubles.")) {
          return super.loadClass(name, resolve);
        }
        Class<?> found = findLoadedClass(name);
        if (found != null) {
          return found;
        }
        String file = name.replace('.', '/') + ".class";
        try (InputStream in = getParent().getResourceAsStream(file)) {
          if (in == null) {
            throw new ClassNotFoundException(name);
          }
          byte[] bytes = in.readAllBytes();
          return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }
}
