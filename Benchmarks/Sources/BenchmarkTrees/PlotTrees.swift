import Plot

/// The same static tree written with Plot 0.14.0, for a same-run comparison.
public enum PlotTrees {
    public static func html(count: Int) -> String {
        Node<HTML.BodyContext>.ul(
            .forEach(0..<count) { index in
                .li(.text(itemText(index)))
            }
        ).render()
    }
}
