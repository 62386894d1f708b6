package io.github.distlock.sample.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import io.github.distlock.sample.race.RaceClient;
import io.github.distlock.sample.race.RaceFailedException;
import io.github.distlock.sample.race.RaceMode;
import io.github.distlock.sample.race.RaceProgress;
import io.github.distlock.sample.race.RaceResult;
import io.github.distlock.sample.race.RaceRunner;

/**
 * {@code java -jar lock-sample-app.jar --demo}: the seed article's experiment against
 * several instances. Starts them, runs the 200-buyer race without a lock, with it and
 * fenced, prints the comparison table and stops everything it started. Exits 0 only if
 * the locked and fenced races were exact.
 */
public final class DemoCommand {

	/** The argument that selects the demo instead of running one instance. */
	public static final String FLAG = "--demo";

	/** Exit status when the locked or fenced race was not exact. */
	static final int EXIT_NOT_EXACT = 1;

	/** Exit status for bad options. */
	static final int EXIT_USAGE = 2;

	/**
	 * Exit status when the demo could not run (an instance did not start, a race did not
	 * finish).
	 */
	static final int EXIT_FAILED = 3;

	private final DemoOptions options;

	private final PrintStream out;

	private DemoCommand(DemoOptions options, PrintStream out) {
		this.options = options;
		this.out = out;
	}

	/** Runs the demo with the process's standard output; returns the exit status. */
	public static int run(String[] args) {
		return run(args, System.out);
	}

	static int run(String[] args, PrintStream out) {
		DemoOptions options;
		try {
			options = DemoOptions.parse(args);
		}
		catch (IllegalArgumentException ex) {
			out.println("Error: " + ex.getMessage());
			out.println(DemoOptions.USAGE);
			return EXIT_USAGE;
		}
		if (options.help()) {
			out.println(DemoOptions.USAGE);
			return 0;
		}
		try {
			return new DemoCommand(options, out).run();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			out.println("Interrupted");
			return EXIT_FAILED;
		}
		catch (IllegalArgumentException | IllegalStateException | RaceFailedException | IOException ex) {
			out.println("Error: " + ex.getMessage());
			return EXIT_FAILED;
		}
	}

	private int run() throws InterruptedException, IOException {
		this.out.println("distlock oversold demo: " + this.options.stock() + " apples, " + this.options.buyers()
				+ " concurrent buyers, " + this.options.instances() + " instances sharing one database and one Redis");
		Path workDirectory = (this.options.workDirectory() != null) ? this.options.workDirectory()
				: Files.createTempDirectory("distlock-demo-");
		DemoCluster.Settings settings = new DemoCluster.Settings(this.options.instances(), this.options.redis(),
				this.options.startRedis(), DemoCluster.Settings.javaCommand(this.options.jar()), List.of(),
				workDirectory);
		// Closing it also runs as a shutdown hook: Ctrl-C stops the instances, Redis and
		// the database too.
		DemoCluster cluster = DemoCluster.start(settings, this.out);
		try {
			List<RaceResult> results = race(cluster);
			this.out.println();
			this.out.print(ComparisonTable.render(results));
			this.out.println();
			int status = verdict(results);
			if (this.options.keepRunning()) {
				keepRunning(cluster);
			}
			return status;
		}
		catch (RaceFailedException ex) {
			this.out.println("Error: " + ex.getMessage());
			this.out.println(cluster.logTails(20));
			return EXIT_FAILED;
		}
		finally {
			cluster.close();
		}
	}

	/**
	 * Each race runs on the first instance ({@code POST /race}, as the dashboard's
	 * buttons do), so that its dashboard shows the demo's races.
	 */
	private List<RaceResult> race(DemoCluster cluster) {
		RaceClient client = RaceClient.create();
		List<URI> urls = cluster.urls();
		List<RaceResult> results = new ArrayList<>();
		for (RaceMode mode : RaceMode.values()) {
			this.out.println();
			this.out.println(mode.label() + ": " + this.options.buyers() + " buyers, round-robin over " + urls.size()
					+ " instances (GET /product/buy?lock=" + mode.code() + "), sent by " + urls.get(0)
					+ " (POST /race)");
			RaceResult result = client.race(urls.get(0), mode, this.options.buyers(), this.options.stock(),
					new ProgressPrinter());
			this.out.println("  " + result.verdict() + " Bought per instance: "
					+ result.boughtPerInstance().stream().map((tally) -> tally.url() + "=" + tally.bought()).toList());
			results.add(result);
		}
		return results;
	}

	private int verdict(List<RaceResult> results) {
		int status = 0;
		for (RaceResult result : results) {
			switch (result.mode()) {
				case NO_LOCK -> this.out.println(result.oversoldOrLostUpdates()
						? "No lock: as in the article, buyers on both instances read the same stock and overwrote each"
								+ " other's decrements: " + result.records() + " purchases recorded for "
								+ (result.stock() - result.surplus()) + " apples taken from stock."
						: "No lock: this time the race happened to come out consistent (" + result.records()
								+ " records, " + result.surplus() + " left); run again to see it oversell.");
				case LOCKED, FENCED -> {
					if (!result.exact()) {
						status = EXIT_NOT_EXACT;
						this.out.println("FAILED " + result.label() + ": " + result.verdict());
					}
				}
			}
		}
		if (status == 0) {
			this.out.println("Locked and Fenced sold exactly " + Math.min(this.options.stock(), this.options.buyers())
					+ " and left " + Math.max(0, this.options.stock() - this.options.buyers()) + ": PASS");
		}
		return status;
	}

	private void keepRunning(DemoCluster cluster) throws InterruptedException {
		this.out.println("Dashboard: " + cluster.urls().get(0) + "/  (other instances: "
				+ cluster.urls().subList(1, cluster.urls().size()) + ")");
		this.out.println("Press Ctrl-C to stop the instances.");
		// Returns only when interrupted; Ctrl-C runs the shutdown hook, which stops the
		// cluster.
		new CountDownLatch(1).await();
	}

	/**
	 * A progress bar, redrawn in place on a terminal and printed at most once per tenth
	 * otherwise; the finished race once.
	 */
	private final class ProgressPrinter implements RaceRunner.Progress {

		private static final int WIDTH = 30;

		private final boolean terminal = System.console() != null;

		private int lastTenth = -1;

		private boolean finished;

		@Override
		public void update(RaceProgress progress) {
			int answered = progress.answered();
			int buyers = progress.buyers();
			int tenth = answered * 10 / buyers;
			if (this.finished || (!this.terminal && tenth == this.lastTenth)) {
				return;
			}
			this.lastTenth = tenth;
			this.finished = progress.done();
			int filled = answered * WIDTH / buyers;
			String line = String.format("  [%s%s] %3d/%d answered, stock %d, purchase records %d", "#".repeat(filled),
					".".repeat(WIDTH - filled), answered, buyers, progress.amount(), progress.purchases());
			if (this.terminal) {
				DemoCommand.this.out.print("\r" + line + ((answered == buyers) ? System.lineSeparator() : ""));
			}
			else {
				DemoCommand.this.out.println(line);
			}
			DemoCommand.this.out.flush();
		}

	}

}
