package dev.tala.tests.corruption;

/**
 * Where in a file a piece of damage landed.
 *
 * @param part   a coarse name cases are counted by, e.g. "embeddings region" or "last record"
 * @param detail the exact place, for messages, e.g. "record 3 (sequence 176) of 25, header byte 4"
 */
record Location(String part, String detail) {
}
