import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

/** Prints the iteration order of a java.util.HashMap filled with the keys read from stdin, one a line, with put
 *  (args[0] = "put") or merge ("merge"); a key read twice is a second call for it, a line "-key" removes the key.
 *  With args[1] = "copy", prints the order of a new HashSet of the map's keys instead. */
public class KeyOrder {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Map<String, Integer> map = new HashMap<>();
        boolean merge = args[0].equals("merge");
        for (String key; (key = in.readLine()) != null; ) {
            if (key.startsWith("-")) map.remove(key.substring(1));
            else if (merge) map.merge(key, 1, Integer::sum);
            else map.put(key, map.getOrDefault(key, 0) + 1);
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Collection<String> keys = args.length > 1 && args[1].equals("copy") ? new HashSet<>(map.keySet()) : map.keySet();
        for (String key : keys) out.println(key);
    }
}
