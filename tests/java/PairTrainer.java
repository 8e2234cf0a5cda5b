import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

/** A BPE trainer as a Java student writes one, for the tests: words split on whitespace, each a list of its
 *  characters; pair counts taken afresh each step in a HashMap keyed a + " " + b; the best pair by
 *  Collections.max over its entries (the first of equal counts in the map's order).
 *  args: text file, number of merges, "put" (words in a list in the text's order, counts by put) or "merge"
 *  (words in a HashMap of token lists, built afresh after each merge, counts by merge). Prints "a b" per merge. */
public class PairTrainer {
    public static void main(String[] args) throws IOException {
        String text = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8);
        int merges = Integer.parseInt(args[1]);
        boolean merge = args[2].equals("merge");
        List<List<String>> words = new ArrayList<>();
        Map<List<String>, Integer> wordFreqs = new HashMap<>();
        for (String word : text.split("\\s+")) {
            if (word.isEmpty()) continue;
            List<String> chars = new ArrayList<>();
            for (char c : word.toCharArray()) chars.add(String.valueOf(c));
            if (merge) wordFreqs.merge(chars, 1, Integer::sum); else words.add(chars);
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        for (int m = 0; m < merges; m++) {
            Map<String, Integer> counts = new HashMap<>();
            if (merge) {
                for (Map.Entry<List<String>, Integer> e : wordFreqs.entrySet()) {
                    List<String> w = e.getKey();
                    for (int i = 0; i + 1 < w.size(); i++) counts.merge(w.get(i) + " " + w.get(i + 1), e.getValue(), Integer::sum);
                }
            } else {
                for (List<String> w : words)
                    for (int i = 0; i + 1 < w.size(); i++) {
                        String k = w.get(i) + " " + w.get(i + 1);
                        counts.put(k, counts.getOrDefault(k, 0) + 1);
                    }
            }
            if (counts.isEmpty()) break;
            String best = Collections.max(counts.entrySet(), Map.Entry.comparingByValue()).getKey();
            out.println(best);
            String[] ab = best.split(" ");
            if (merge) {
                Map<List<String>, Integer> next = new HashMap<>();
                for (Map.Entry<List<String>, Integer> e : wordFreqs.entrySet()) next.merge(merged(e.getKey(), ab), e.getValue(), Integer::sum);
                wordFreqs = next;
            } else {
                for (int i = 0; i < words.size(); i++) words.set(i, merged(words.get(i), ab));
            }
        }
    }

    static List<String> merged(List<String> w, String[] ab) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < w.size(); i++) {
            if (i + 1 < w.size() && w.get(i).equals(ab[0]) && w.get(i + 1).equals(ab[1])) { out.add(ab[0] + ab[1]); i++; }
            else out.add(w.get(i));
        }
        return out;
    }
}
