import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

/** A BPE trainer as a Java student writes one, for the tests: words split on whitespace, each kept as the string of
 *  its symbols joined by spaces ("l o w </w>") in a HashMap of word counts filled with put; each step the pairs are
 *  counted afresh in a HashMap and the best pair kept as the count goes (a count strictly greater than the best so
 *  far), so of equal counts the pair whose count is complete first in the word map's order wins; each merge walks a
 *  HashSet copy of the words and puts each changed word's new string, then removes the old one.
 *  args: text file, number of merges, "symbols" (the pair merged symbol by symbol) or "replace" (the text "a b"
 *  replaced by "ab" anywhere in the string, inside longer symbols too). Prints "a b" per merge. */
public class WordMapTrainer {
    public static void main(String[] args) throws IOException {
        String text = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8);
        int merges = Integer.parseInt(args[1]);
        boolean replace = args[2].equals("replace");
        Map<String, Integer> words = new HashMap<>();
        for (String word : text.split("\\s+")) {
            if (word.isEmpty()) continue;
            StringBuilder spaced = new StringBuilder();
            for (char c : word.toCharArray()) spaced.append(c).append(' ');
            spaced.append("</w>");
            words.put(spaced.toString(), words.getOrDefault(spaced.toString(), 0) + 1);
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        for (int m = 0; m < merges; m++) {
            Map<String, Integer> counts = new HashMap<>();
            String bestLeft = null, bestRight = null;
            int best = 0;
            for (String word : words.keySet()) {
                String[] symbols = word.split(" ");
                for (int i = 0; i + 1 < symbols.length; i++) {
                    String key = symbols[i] + " " + symbols[i + 1];
                    counts.put(key, counts.getOrDefault(key, 0) + words.get(word));
                    if (counts.get(key) > best) {
                        best = counts.get(key);
                        bestLeft = symbols[i];
                        bestRight = symbols[i + 1];
                    }
                }
            }
            if (bestLeft == null) break;
            out.println(bestLeft + " " + bestRight);
            for (String word : new HashSet<>(words.keySet())) {
                String changed = replace ? word.replace(bestLeft + " " + bestRight, bestLeft + bestRight)
                                         : merged(word, bestLeft, bestRight);
                if (!changed.equals(word)) {
                    words.put(changed, words.get(word));
                    words.remove(word);
                }
            }
        }
    }

    static String merged(String word, String a, String b) {
        String[] symbols = word.split(" ");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < symbols.length; i++) {
            if (i + 1 < symbols.length && symbols[i].equals(a) && symbols[i + 1].equals(b)) { out.add(a + b); i++; }
            else out.add(symbols[i]);
        }
        return String.join(" ", out);
    }
}
