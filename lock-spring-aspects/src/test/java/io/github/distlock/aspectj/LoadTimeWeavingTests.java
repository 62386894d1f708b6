package io.github.distlock.aspectj;

import java.net.URISyntaxException;
import java.nio.file.Path;

import io.github.distlock.aspectj.ltw.LtwCounter;
import org.aspectj.weaver.loadtime.Agent;

/**
 * Load-time weaving: the instances' JVMs run with {@code -javaagent:aspectjweaver.jar},
 * which weaves {@link LtwCounter} (compiled by javac only) as it is loaded, with the
 * aspect declared in {@code lock-spring-aspects}' {@code META-INF/aop.xml} and the
 * package included by the test's own {@code META-INF/aop.xml}.
 */
class LoadTimeWeavingTests extends TwoInstanceExclusion {

	@Override
	Class<? extends CounterWork> counterClass() {
		return LtwCounter.class;
	}

	@Override
	String[] jvmArgs() {
		return new String[] { "-javaagent:" + weaverJar() };
	}

	static Path weaverJar() {
		try {
			return Path.of(Agent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
