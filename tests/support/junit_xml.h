#pragma once
// Reads a junit.xml back with libxml2: a strict XML 1.0 parse (any error fails it), a
// validation against tests/report/junit.xsd (the structure Jenkins and GitLab read), and
// the test cases as plain structs.
#include <libxml/parser.h>
#include <libxml/xmlschemas.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "support/paths.h"

namespace tipc::test {

struct JunitCase {
  std::string suite, classname, name;
  std::string outcome;  // "", "failure", "error", "skipped"
  std::string message, text;
  std::map<std::string, std::string> properties;  // <properties> of the test case: name -> value
  std::string system_out;
};

struct JunitSuite {
  std::map<std::string, std::string> attributes;
  int cases = 0;
};

struct JunitFile {
  std::string errors;  // parse and schema messages; empty when valid
  std::map<std::string, std::string> root_attributes;
  std::vector<JunitSuite> suites;
  std::vector<JunitCase> cases;
};

namespace junit_detail {

inline void collect(void* context, xmlErrorPtr error) {
  if (error && error->message) *static_cast<std::string*>(context) += error->message;
}

inline std::string prop(xmlNode* node, const char* name) {
  xmlChar* value = xmlGetProp(node, reinterpret_cast<const xmlChar*>(name));
  if (!value) return "";
  std::string text(reinterpret_cast<const char*>(value));
  xmlFree(value);
  return text;
}

inline std::string content(xmlNode* node) {
  xmlChar* value = xmlNodeGetContent(node);
  std::string text = value ? reinterpret_cast<const char*>(value) : "";
  xmlFree(value);
  return text;
}

inline bool named(xmlNode* node, const char* name) {
  return node->type == XML_ELEMENT_NODE && std::string(reinterpret_cast<const char*>(node->name)) == name;
}

inline std::map<std::string, std::string> attributes(xmlNode* node) {
  std::map<std::string, std::string> out;
  for (xmlAttr* a = node->properties; a; a = a->next) {
    out[reinterpret_cast<const char*>(a->name)] = prop(node, reinterpret_cast<const char*>(a->name));
  }
  return out;
}

inline JunitCase read_case(const std::string& suite, xmlNode* node) {
  JunitCase c{suite, prop(node, "classname"), prop(node, "name"), "", "", "", {}, ""};
  for (xmlNode* child = node->children; child; child = child->next) {
    if (named(child, "properties")) {
      for (xmlNode* p = child->children; p; p = p->next) {
        if (named(p, "property")) c.properties[prop(p, "name")] = prop(p, "value");
      }
    }
    if (named(child, "system-out")) c.system_out = content(child);
    for (const char* outcome : {"failure", "error", "skipped"}) {
      if (!named(child, outcome)) continue;
      c.outcome = outcome;
      c.message = prop(child, "message");
      c.text = content(child);
    }
  }
  return c;
}

inline bool validate(xmlDoc* doc, std::string& errors) {
  const std::string xsd = source_dir() + "/tests/report/junit.xsd";
  std::unique_ptr<xmlSchemaParserCtxt, void (*)(xmlSchemaParserCtxtPtr)> parser(xmlSchemaNewParserCtxt(xsd.c_str()),
                                                                                xmlSchemaFreeParserCtxt);
  std::unique_ptr<xmlSchema, void (*)(xmlSchemaPtr)> schema(xmlSchemaParse(parser.get()), xmlSchemaFree);
  if (!schema) return errors += "cannot read " + xsd, false;
  std::unique_ptr<xmlSchemaValidCtxt, void (*)(xmlSchemaValidCtxtPtr)> validator(xmlSchemaNewValidCtxt(schema.get()),
                                                                                 xmlSchemaFreeValidCtxt);
  return xmlSchemaValidateDoc(validator.get(), doc) == 0;
}

}  // namespace junit_detail

inline JunitFile read_junit(const std::string& text) {
  using namespace junit_detail;
  JunitFile file;
  xmlSetStructuredErrorFunc(&file.errors, collect);
  std::unique_ptr<xmlDoc, void (*)(xmlDocPtr)> doc(
      xmlReadMemory(text.data(), static_cast<int>(text.size()), "junit.xml", nullptr, XML_PARSE_NONET), xmlFreeDoc);
  if (doc && validate(doc.get(), file.errors)) {
    xmlNode* root = xmlDocGetRootElement(doc.get());
    file.root_attributes = attributes(root);
    for (xmlNode* suite = root->children; suite; suite = suite->next) {
      if (!named(suite, "testsuite")) continue;
      file.suites.push_back({attributes(suite), 0});
      for (xmlNode* node = suite->children; node; node = node->next) {
        if (!named(node, "testcase")) continue;
        file.cases.push_back(read_case(prop(suite, "name"), node));
        ++file.suites.back().cases;
      }
    }
  } else if (file.errors.empty()) {
    file.errors = "not valid";
  }
  xmlSetStructuredErrorFunc(nullptr, nullptr);
  return file;
}

}  // namespace tipc::test
