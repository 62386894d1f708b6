package io.github.distlock.sample;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;

/**
 * Stops this instance when the demo launcher that started it is gone, even if the
 * launcher was killed without a chance to stop its children.
 */
@Component
class ParentProcessWatch implements ApplicationRunner {

	private static final Log logger = LogFactory.getLog(ParentProcessWatch.class);

	private final SampleProperties properties;

	private final ConfigurableApplicationContext context;

	ParentProcessWatch(SampleProperties properties, ConfigurableApplicationContext context) {
		this.properties = properties;
		this.context = context;
	}

	@Override
	public void run(ApplicationArguments args) {
		Long parentPid = this.properties.getParentPid();
		if (parentPid == null) {
			return;
		}
		ProcessHandle.of(parentPid)
			.ifPresentOrElse((parent) -> parent.onExit().thenRun(() -> exit("launcher (pid " + parentPid + ") ended")),
					() -> exit("launcher (pid " + parentPid + ") is not running"));
	}

	private void exit(String why) {
		logger.info("Stopping: the " + why);
		System.exit(SpringApplication.exit(this.context));
	}

}
