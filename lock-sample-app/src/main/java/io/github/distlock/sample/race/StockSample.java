package io.github.distlock.sample.race;

/**
 * The stock the first instance reported at one moment of a race: a point of the
 * dashboard's "Stock over time" chart.
 *
 * @param millis since the buyers were released
 * @param amount stock left
 */
public record StockSample(long millis, int amount) {
}
