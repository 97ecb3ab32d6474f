import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fts5Match, parseSearch, SEARCH_MAX_LENGTH, SEARCH_MAX_WORDS, tsQuery } from "./search";

const texts = (q: string) => parseSearch(q).words.map((w) => w.text);

describe("parseSearch", () => {
  it("lower-cases and splits on anything that is not a letter or digit", () => {
    expect(texts("Teak  KING-size bed")).toEqual(["teak", "king", "size", "bed"]);
    expect(texts("3-Seater, 2.5 kg")).toEqual(["3", "seater", "2", "5", "kg"]);
    expect(texts("children's")).toEqual(["children", "s"]);
  });

  it("makes quotes and operators plain separators or plain words", () => {
    expect(texts('"teak" AND (bed OR cot) NOT -sofa*')).toEqual(["teak", "and", "bed", "or", "cot", "not", "sofa"]);
    expect(texts("^x: NEAR/2 col:teak")).toEqual(["x", "near", "2", "col", "teak"]);
    expect(parseSearch("AND OR NOT NEAR * ^ - : ( )").words.every((w) => /^[a-z]+$/.test(w.text))).toBe(true);
    expect(parseSearch("* ^ - : ( ) \" ' ` ~ | & ; + = < > { } [ ] \\ / ! ? @ # $ % , .").words).toEqual([]);
  });

  it("marks words of two characters or more as prefixes, single characters as whole words", () => {
    expect(parseSearch("3 seater").words).toEqual([
      { text: "3", prefix: false },
      { text: "seater", prefix: true },
    ]);
    expect(parseSearch("a").searchable).toBe(false);
    expect(parseSearch("a b").searchable).toBe(false);
    expect(parseSearch("a bc").searchable).toBe(true);
  });

  it("a word of two characters is a prefix only as the last word; three or more wherever it is (ADR 0014)", () => {
    expect(parseSearch("tv unit").words).toEqual([
      { text: "tv", prefix: false },
      { text: "unit", prefix: true },
    ]);
    expect(parseSearch("teak be").words).toEqual([
      { text: "teak", prefix: true },
      { text: "be", prefix: true },
    ]);
    expect(parseSearch("tea kin be").words.map((w) => w.prefix)).toEqual([true, true, true]);
    // A crafted search: eight common two-letter prefixes, seven of them now whole words.
    expect(parseSearch("fo in fr by ou te ma an").words.map((w) => w.prefix)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    // The last word searched: the 8th of a longer text, and a repeated word counts once, where it first was.
    expect(parseSearch("aa bb cc dd ee ff gg hh ii").words.map((w) => w.prefix)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(parseSearch("sofa be sofa").words).toEqual([
      { text: "sofa", prefix: true },
      { text: "be", prefix: true },
    ]);
    // A two-letter word before a single character is whole, and still makes the text searchable.
    expect(parseSearch("tv 3")).toMatchObject({
      words: [
        { text: "tv", prefix: false },
        { text: "3", prefix: false },
      ],
      searchable: true,
    });
  });

  it("answers nothing to search for an empty, blank or wordless text", () => {
    for (const q of [null, undefined, "", "   ", "\u0000", "🛋️", "***", "\u200b"]) {
      const parsed = parseSearch(q);
      expect(parsed.words, JSON.stringify(q)).toEqual([]);
      expect(parsed.searchable).toBe(false);
    }
    expect(parseSearch("  ").text).toBe("");
  });

  it("drops control characters and emoji, keeps letters of any script and their marks", () => {
    expect(texts("te\u0000ak\u0007bed")).toEqual(["te", "ak", "bed"]);
    expect(parseSearch("te\u0000ak").text).toBe("te ak");
    expect(texts("🛏️ teak 🛋️")).toEqual(["teak"]);
    expect(texts("Café Über")).toEqual(["café", "über"]);
    expect(texts("शीशम लकड़ी")).toEqual(["शीशम", "लकड़ी"]);
    expect(texts("ｔｅａｋ")).toEqual(["teak"]);
  });

  it("caps the text at 200 characters and 8 different words, and says so", () => {
    const long = "x".repeat(1024);
    const parsed = parseSearch(long);
    expect(parsed.tooLong).toBe(true);
    expect(parsed.text).toHaveLength(SEARCH_MAX_LENGTH);
    expect(parsed.words).toEqual([{ text: "x".repeat(40), prefix: true }]);
    const nine = parseSearch("one two three four five six seven eight nine");
    expect(nine.words).toHaveLength(SEARCH_MAX_WORDS);
    expect(nine.dropped).toBe(1);
    expect(parseSearch("teak teak TEAK bed").words).toHaveLength(2);
    expect(parseSearch("teak bed").dropped).toBe(0);
    // Never cut inside a surrogate pair.
    const emoji = parseSearch("🛋".repeat(300)).text;
    expect(Array.from(emoji)).toHaveLength(SEARCH_MAX_LENGTH);
  });

  it("whatever the text, the words are letters and digits only, at most 8 of at most 40 characters", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: "binary" }), (q) => {
        const parsed = parseSearch(q);
        expect(parsed.words.length).toBeLessThanOrEqual(SEARCH_MAX_WORDS);
        expect(Array.from(parsed.text).length).toBeLessThanOrEqual(SEARCH_MAX_LENGTH);
        for (const w of parsed.words) {
          expect(w.text).toMatch(/^[\p{L}\p{N}\p{Co}][\p{L}\p{M}\p{N}\p{Co}]*$/u);
          expect(Array.from(w.text).length).toBeLessThanOrEqual(40);
        }
        // Quoted word by word: nothing in the engines' syntax survives outside the quotes.
        expect(
          fts5Match(parsed.words)
            .replace(/"[^"]*"\*?/g, "")
            .trim(),
        ).toBe("");
        expect(
          tsQuery(parsed.words)
            .replace(/'[^']*'(:\*)?/g, "")
            .replace(/&/g, "")
            .trim(),
        ).toBe("");
      }),
      { numRuns: 500 },
    );
  });
});

describe("the engines' query text", () => {
  it("FTS5: quoted words, a star after a prefix, space for AND", () => {
    expect(fts5Match(parseSearch("Shee 3 bed").words)).toBe('"shee"* "3" "bed"*');
  });

  it("PostgreSQL: quoted words, :* after a prefix, & for AND", () => {
    expect(tsQuery(parseSearch("Shee 3 bed").words)).toBe("'shee':* & '3' & 'bed':*");
    expect(tsQuery(parseSearch("tv unit").words)).toBe("'tv' & 'unit':*");
    expect(fts5Match(parseSearch("tv unit").words)).toBe('"tv" "unit"*');
  });
});
