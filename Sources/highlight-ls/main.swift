import Foundation
print("highlight-ls")
