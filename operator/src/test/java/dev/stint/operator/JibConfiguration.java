package dev.stint.operator;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The Jib build of the operator's image as operator/pom.xml configures it (the plugin in profile {@code image}),
 * read as text: the image tests check the configuration, since no registry is reachable to build from where they
 * run.
 */
final class JibConfiguration {
  private static final String CONFIGURATION =
      "//profile[id='image']//plugin[artifactId='jib-maven-plugin']/configuration/";

  private final Document pom;
  private final XPath xpath = XPathFactory.newInstance().newXPath();

  private JibConfiguration(Document pom) {
    this.pom = pom;
  }

  /** The configuration of operator/pom.xml, below the repository root that {@code stint.root} names. */
  static JibConfiguration ofTheOperator() {
    Path pom = Path.of(System.getProperty("stint.root", "..")).resolve("operator/pom.xml");
    try {
      return new JibConfiguration(DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile()));
    } catch (IOException | ParserConfigurationException | SAXException e) {
      throw new IllegalStateException("cannot read " + pom, e);
    }
  }

  /** The trimmed text at a path below the configuration, such as {@code from/image}; empty where there is none. */
  String value(String path) throws XPathExpressionException {
    return xpath.evaluate(CONFIGURATION + path, pom).trim();
  }

  /** The platforms the image is built for, as {@code os/architecture}, in the order listed. */
  List<String> platforms() throws XPathExpressionException {
    NodeList platforms = (NodeList) xpath.evaluate(CONFIGURATION + "from/platforms/platform", pom,
        XPathConstants.NODESET);
    List<String> found = new ArrayList<>();
    for (int i = 0; i < platforms.getLength(); i++) {
      Node platform = platforms.item(i);
      found.add(xpath.evaluate("os", platform).trim() + "/" + xpath.evaluate("architecture", platform).trim());
    }
    return found;
  }
}
