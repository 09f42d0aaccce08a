import type { Template } from "./template.js";

const WORDS = `"""Counts the words of a text, most frequent first."""

from collections import Counter


def word_counts(text):
    return Counter(text.lower().split()).most_common()


if __name__ == "__main__":
    for word, count in word_counts("the cat and the hat"):
        print(count, word)
`;

const WORDS_TEST = `import unittest

from words import word_counts


class WordCountsTest(unittest.TestCase):
    def test_most_frequent_first(self):
        self.assertEqual(word_counts("b a b")[0], ("b", 2))

    def test_case_is_ignored(self):
        self.assertEqual(word_counts("A a"), [("a", 2)])


if __name__ == "__main__":
    unittest.main()
`;

const README = `# Python script

A script and its unittest tests. In the terminal: \`cd python-script && python3 words.py\`, and
\`python3 test_words.py\` for the tests.
`;

export const pythonScript: Template = {
  id: "python-script",
  title: "Python script with unittest",
  summary: "A word counter and its unittest tests.",
  main: "words.py",
  files: { "words.py": WORDS, "test_words.py": WORDS_TEST, "README.md": README },
};
