package io.github.distlock.test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The application the kit's tests run: auto-configured, with the locked jobs of
 * {@link Jobs}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ Jobs.class, LockLostEvents.class })
class KitTestApplication {

}
